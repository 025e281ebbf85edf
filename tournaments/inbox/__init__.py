"""The organizer's inbox: what waits for their decision in the tournaments they run."""
