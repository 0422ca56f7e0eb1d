"""Where documents come from: Project Gutenberg's catalog and mirror download, or a folder corpus."""
