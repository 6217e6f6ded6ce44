"""The REST API, mounted at /api/."""

from django.urls import path

from agon.api import (
    analysis,
    auth,
    bots,
    challenges,
    competitions,
    datasets,
    game_stats,
    games,
    ladders,
    matches,
    notifications,
    root,
    tournaments,
    version_tests,
)

urlpatterns = [
    path("", root.ApiRootView.as_view(), name="api-root"),
    path("auth/register/", auth.RegisterView.as_view(), name="register"),
    path("auth/token/", auth.TokenView.as_view(), name="token"),
    path("auth/me/", auth.MeView.as_view(), name="me"),
    path("games/", games.GameListView.as_view(), name="games"),
    path("games/<slug:game_id>/datasets/", datasets.DatasetView.as_view(), name="datasets"),
    path("games/<slug:game_id>/stats/", game_stats.GameStatsView.as_view(), name="game-stats"),
    path(
        "games/<slug:game_id>/datasets/files/<str:name>",
        datasets.DatasetFileView.as_view(),
        name="dataset-file",
    ),
    path("bots/", bots.BotListView.as_view(), name="bots"),
    path("bots/<int:bot_id>/", bots.BotDetailView.as_view(), name="bot"),
    path("bots/<int:bot_id>/head-to-head/", bots.HeadToHeadView.as_view(), name="bot-head-to-head"),
    path("bots/<int:bot_id>/versions/", bots.VersionListView.as_view(), name="bot-versions"),
    path("bots/<int:bot_id>/resume/", bots.ResumeView.as_view(), name="bot-resume"),
    path("bots/<int:bot_id>/retire/", bots.RetireView.as_view(), name="bot-retire"),
    path("bots/<int:bot_id>/reactivate/", bots.ReactivateView.as_view(), name="bot-reactivate"),
    path("bots/<int:bot_id>/entries/", tournaments.BotEntriesView.as_view(), name="bot-entries"),
    path(
        "bots/<int:bot_id>/competitions/",
        competitions.BotCompetitionsView.as_view(),
        name="bot-competitions",
    ),
    path(
        "bots/<int:bot_id>/versions/<int:number>/download/",
        bots.VersionDownloadView.as_view(),
        name="bot-version-download",
    ),
    path(
        "bots/<int:bot_id>/tests/",
        version_tests.VersionTestListView.as_view(),
        name="bot-version-tests",
    ),
    path(
        "bots/<int:bot_id>/tests/<int:test_id>/",
        version_tests.VersionTestDetailView.as_view(),
        name="bot-version-test",
    ),
    path("ladders/", ladders.LadderListView.as_view(), name="ladders"),
    path(
        "ladders/<int:ladder_id>/leaderboard/",
        ladders.LeaderboardView.as_view(),
        name="leaderboard",
    ),
    path("matches/", matches.MatchListView.as_view(), name="matches"),
    path("matches/<int:match_id>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/replay/", matches.ReplayView.as_view(), name="match-replay"),
    path("matches/<int:match_id>/timeline/", matches.TimelineView.as_view(), name="match-timeline"),
    path(
        "matches/<int:match_id>/analysis/",
        analysis.MatchAnalysisView.as_view(),
        name="match-analysis",
    ),
    path(
        "matches/<int:match_id>/logs/<int:seat>/",
        matches.SeatLogView.as_view(),
        name="match-seat-log",
    ),
    path("challenges/", challenges.ChallengeView.as_view(), name="challenges"),
    path("notifications/", notifications.NotificationListView.as_view(), name="notifications"),
    path(
        "notifications/settings/",
        notifications.NotificationSettingsView.as_view(),
        name="notification-settings",
    ),
    path(
        "notifications/webhooks/",
        notifications.WebhookListView.as_view(),
        name="webhooks",
    ),
    path(
        "notifications/webhooks/<int:webhook_id>/",
        notifications.WebhookDetailView.as_view(),
        name="webhook",
    ),
    path(
        "notifications/webhooks/<int:webhook_id>/test/",
        notifications.WebhookTestView.as_view(),
        name="webhook-test",
    ),
    path(
        "notifications/webhooks/<int:webhook_id>/deliveries/",
        notifications.WebhookDeliveriesView.as_view(),
        name="webhook-deliveries",
    ),
    path("competitions/", competitions.CompetitionListView.as_view(), name="competitions"),
    path(
        "competitions/<int:competition_id>/",
        competitions.CompetitionDetailView.as_view(),
        name="competition",
    ),
    path(
        "competitions/<int:competition_id>/standings/",
        competitions.CompetitionStandingsView.as_view(),
        name="competition-standings",
    ),
    path(
        "competitions/<int:competition_id>/games/",
        competitions.CompetitionGamesView.as_view(),
        name="competition-games",
    ),
    path(
        "competitions/<int:competition_id>/entries/",
        competitions.CompetitionEntryView.as_view(),
        name="competition-entries",
    ),
    path(
        "competitions/<int:competition_id>/entries/<int:bot_id>/",
        competitions.CompetitionEntryLeaveView.as_view(),
        name="competition-entry",
    ),
    path("tournaments/", tournaments.TournamentListView.as_view(), name="tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        tournaments.TournamentDetailView.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/",
        tournaments.EntryListView.as_view(),
        name="tournament-entries",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/",
        tournaments.EntryDetailView.as_view(),
        name="tournament-entry",
    ),
    path(
        "tournaments/<int:tournament_id>/games/",
        tournaments.TournamentGamesView.as_view(),
        name="tournament-games",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/",
        tournaments.TournamentCancelView.as_view(),
        name="tournament-cancel",
    ),
]
