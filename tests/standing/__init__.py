"""The standing package: the skill rating against OpenSkill's formula worked by hand, and its
rebuild."""
