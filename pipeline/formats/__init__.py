"""Exchange formats: tournament reports read in (TRF, SWAR) and list exports written out."""
