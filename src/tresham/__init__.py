"""tresham: an engine and table for 18xx railway games."""
