"""The pages, by domain: thin over the selectors and the apps' services."""
