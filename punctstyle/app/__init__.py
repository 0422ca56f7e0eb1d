"""``punctstyle app``: a local web page on a finished run or an attribution bundle.

:mod:`punctstyle.app.server` builds the Flask application and serves it with waitress;
:mod:`punctstyle.app.views` holds the pages (one function and one ``ROUTES`` entry each).
Templates, the style sheet and the small drag-and-drop script are package data: the page
loads nothing from the internet. See docs/app.md.
"""
