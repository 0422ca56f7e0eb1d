"""Per-book files: the steps from raw text to feature row, their file formats, excerpts."""
