"""The REST API: thin views over the apps' services and selectors."""
