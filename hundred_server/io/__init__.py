"""The asyncio layer: listeners, reading and writing, limits, timers, the committer that
saves before it sends, the site bus. Everything that awaits lives here; it feeds the
core (``hundred_server.core``) messages and writes what the core returns."""
