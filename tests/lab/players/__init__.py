"""Tests of the arena, yardsticks and training (lab/players)."""
