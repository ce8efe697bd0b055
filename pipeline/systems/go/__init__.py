"""What the two Go rule sets share: grades (G4)."""
