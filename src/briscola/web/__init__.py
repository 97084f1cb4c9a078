"""The browser client: its card art, its words, and the static files ``briscola serve`` serves."""
