"""Agon web platform: the Django project and its apps."""
