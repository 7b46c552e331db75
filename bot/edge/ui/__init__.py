"""Discord components: DynamicItems that survive restarts."""
