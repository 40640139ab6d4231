"""Qt item models shared by several screens."""
