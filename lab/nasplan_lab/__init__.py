"""The nasplan lab: applies Linux bundles to real virtual machines and judges what happened."""
