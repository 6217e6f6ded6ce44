from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "agon.accounts"
    label = "accounts"
    verbose_name = "Accounts"
