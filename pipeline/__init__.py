"""Rating publication pipeline: ingest → validate → rate → publish."""
