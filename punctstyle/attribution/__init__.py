"""Author attribution of one text: the bundle, its length curves, the ranking."""
