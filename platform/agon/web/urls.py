"""The web pages, at the root of the site."""

from django.urls import path

from agon.web.views import (
    accounts,
    bot_lifecycle,
    bots,
    datasets,
    docs,
    game_stats,
    games,
    home,
    ladders,
    matches,
    notifications,
    rules,
    tournaments,
    version_tests,
)

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("signup/", accounts.signup, name="signup"),
    path("signin/", accounts.SignInView.as_view(), name="signin"),
    path("signout/", accounts.SignOutView.as_view(), name="signout"),
    path("my/bots/", bots.my_bots, name="my-bots"),
    path("my/token/", accounts.my_token, name="my-token"),
    path("my/notifications/", notifications.notification_list, name="notifications"),
    path(
        "my/notifications/settings/",
        notifications.notification_settings,
        name="notification-settings",
    ),
    path("my/notifications/webhooks/", notifications.webhook_add, name="webhook-add"),
    path(
        "my/notifications/webhooks/<int:webhook_id>/test/",
        notifications.webhook_test,
        name="webhook-test",
    ),
    path(
        "my/notifications/webhooks/<int:webhook_id>/delete/",
        notifications.webhook_delete,
        name="webhook-delete",
    ),
    path("my/bots/status.json", bots.my_versions_status, name="my-versions-status"),
    path("my/bots/<int:bot_id>/", bots.my_bot, name="my-bot"),
    path(
        "my/bots/<int:bot_id>/tests/",
        version_tests.version_test_start,
        name="version-test-start",
    ),
    path("my/bots/<int:bot_id>/resume/", bots.my_bot_resume, name="my-bot-resume"),
    path("my/bots/<int:bot_id>/rename/", bot_lifecycle.my_bot_rename, name="my-bot-rename"),
    path("my/bots/<int:bot_id>/retire/", bot_lifecycle.my_bot_retire, name="my-bot-retire"),
    path(
        "my/bots/<int:bot_id>/reactivate/",
        bot_lifecycle.my_bot_reactivate,
        name="my-bot-reactivate",
    ),
    path("my/bots/<int:bot_id>/delete/", bot_lifecycle.my_bot_delete, name="my-bot-delete"),
    path(
        "my/bots/<int:bot_id>/events/",
        bots.my_bot_open_to_events,
        name="my-bot-open-to-events",
    ),
    path("bots/<int:bot_id>/", bots.bot_page, name="bot"),
    path(
        "bots/<int:bot_id>/tests/<int:test_id>/",
        version_tests.version_test_page,
        name="version-test",
    ),
    path("ladders/", ladders.ladder_list, name="ladders"),
    path("ladders/<int:ladder_id>/", ladders.ladder_page, name="ladder"),
    path("ladders/<int:ladder_id>/challenge/", ladders.ladder_challenge, name="challenge"),
    path("matches/", matches.match_list, name="matches"),
    path("matches/<int:match_id>/", matches.match_page, name="match"),
    path(
        "matches/<int:match_id>/analysis/",
        matches.match_analysis_request,
        name="match-analysis",
    ),
    path("matches/<int:match_id>/logs/<int:seat>/", bots.seat_log, name="seat-log"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/enter/",
        tournaments.tournament_enter,
        name="tournament-enter",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/withdraw/",
        tournaments.tournament_withdraw,
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/",
        tournaments.tournament_cancel_view,
        name="tournament-cancel",
    ),
    path("docs/", docs.guide, name="guide"),
    path("docs/starter-kit.zip", docs.starter_kit, name="starter-kit"),
    path("docs/kit/<str:filename>", docs.kit_wheel_file, name="kit-wheel"),
    path("docs/examples/<str:name>", docs.example, name="example"),
    path("docs/<slug:slug>/", docs.doc_page, name="doc"),
    path("games/<slug:game_id>/", games.game_page, name="game"),
    path("games/<slug:game_id>/rules/", rules.rules_page, name="rules"),
    path("games/<slug:game_id>/dataset/", datasets.datasheet, name="dataset"),
    path("games/<slug:game_id>/stats/", game_stats.game_stats_page, name="game-stats"),
]
