"""The record package: the game log's kinds, encoded and decoded, against the documented table."""
