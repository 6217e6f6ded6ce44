"""Notifications: what happened to a user's bots, told on the site, by e-mail and by
signed webhooks, each as the user chose per kind of event (agon.notifications.kinds)."""
