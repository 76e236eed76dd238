"""hundred_server: trick-taking card games over a newline-delimited JSON line protocol."""

__version__ = "0.1.0"
