"""The matches of private tournaments made before `Match.private` existed are private:
each game's match and the failed attempts it replaced."""

from django.db import migrations


def mark_private(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    TournamentGame = apps.get_model("tournaments", "TournamentGame")
    games = TournamentGame.objects.filter(tournament__public=False)
    Match.objects.filter(id__in=games.exclude(match=None).values("match_id")).update(private=True)
    attempts = TournamentGame.attempts.through.objects.filter(tournamentgame__tournament__public=False)
    Match.objects.filter(id__in=attempts.values("match_id")).update(private=True)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0010_match_private"),
        ("tournaments", "0005_entry_withdrawn_and_forfeits"),
    ]

    operations = [migrations.RunPython(mark_private, migrations.RunPython.noop)]
