"""The sans-I/O core: the hub, sessions, the lobby, tables, the driver, watchers,
chat, tokens, the journal and fairness. Nothing here awaits, sleeps or touches a
socket: it takes messages in and returns the messages to send."""
