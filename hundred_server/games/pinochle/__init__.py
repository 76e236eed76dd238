"""Single-deck Pinochle."""
