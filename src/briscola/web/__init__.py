"""The browser client: its card art, its words and the rules in plain words."""
