"""Tests of the laboratory (lab/)."""
