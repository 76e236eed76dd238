"""Everything that plays a seat for the server: the worker pool that runs the searching
AIs off the event loop, plug-in bots in isolated workers, remote bots, self-play and
tournaments."""
