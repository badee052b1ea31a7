// SegueImageIO: filled in by its own commit.
