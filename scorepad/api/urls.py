from __future__ import annotations

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import (
    account_views,
    card_views,
    group_views,
    referee_views,
    season_views,
    session_views,
    stats_views,
    tournament_views,
)
from . import import_export_views as ex

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script from a URL, so scripts stay strict here too; Swagger
    # UI injects one <style>, so this page alone allows inline styles.
    path(
        "docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api:schema")
        ),
        name="docs",
    ),
    path("rules", referee_views.rules, name="rules"),
    # each game's own referee questions (scorepad.games.<game>.api), in the registry's order
    *(route for api in referee_views.game_apis() for route in api.URLS),
    path("auth/register", account_views.register, name="register"),
    path("auth/token", account_views.token, name="token"),
    path("auth/token/revoke", account_views.token_revoke, name="token_revoke"),
    path("auth/password", account_views.password, name="password"),
    path("groups/", group_views.groups, name="groups"),
    path("groups/<int:group_id>/players/", group_views.players, name="players"),
    path("groups/<int:group_id>/players/<int:player_id>/", group_views.player_detail,
         name="player_detail"),
    path("groups/<int:group_id>/members/", group_views.members, name="members"),
    path("groups/<int:group_id>/invitations/", group_views.group_invitations,
         name="group_invitations"),
    path("groups/<int:group_id>/invitations/<int:invitation_id>", group_views.group_invitation,
         name="group_invitation"),
    path("invitations/", group_views.invitations, name="invitations"),
    path("invitations/<int:invitation_id>/accept", group_views.invitation_accept,
         name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline", group_views.invitation_decline,
         name="invitation_decline"),
    path("sessions/", session_views.sessions, name="sessions"),
    path("sessions/<int:session_id>/", session_views.session_detail, name="session_detail"),
    path("sessions/<int:session_id>/deals/", session_views.deals, name="deals"),
    path("sessions/<int:session_id>/deals/<int:number>/", session_views.deal_detail,
         name="deal_detail"),
    path("sessions/<int:session_id>/scoreboard", session_views.scoreboard, name="scoreboard"),
    path("sessions/<int:session_id>/history", session_views.history, name="history"),
    path("sessions/<int:session_id>/settlement", session_views.settlement, name="settlement"),
    path("sessions/<int:session_id>/watch-link", session_views.watch_link, name="watch_link"),
    path("players/<int:player_id>/", group_views.roster_player, name="roster_player"),
    path("players/<int:player_id>/stats", stats_views.player_stats, name="player_stats"),
    path("me/stats", stats_views.my_stats, name="my_stats"),
    path("groups/<int:group_id>/ratings", stats_views.group_ratings, name="group_ratings"),
    path("sessions/<int:session_id>/export", ex.session_export, name="session_export"),
    path("sessions/import", ex.session_import, name="session_import"),
    path("groups/<int:group_id>/export", ex.group_export, name="group_export"),
    path("groups/<int:group_id>/import", ex.group_import, name="group_import"),
    path("watch/<token:token>/scoreboard", session_views.watch_scoreboard, name="watch_scoreboard"),
    path("tournaments/", tournament_views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_detail,
         name="tournament_detail"),
    path("tournaments/<int:tournament_id>/players/", tournament_views.players,
         name="tournament_players"),
    path("tournaments/<int:tournament_id>/rounds/", tournament_views.rounds,
         name="tournament_rounds"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/close",
         tournament_views.round_close, name="tournament_round_close"),
    path("tournaments/<int:tournament_id>/ranking", tournament_views.ranking,
         name="tournament_ranking"),
    path("tournaments/<int:tournament_id>/prizes", tournament_views.prizes,
         name="tournament_prizes"),
    path("groups/<int:group_id>/seasons/", season_views.group_seasons, name="group_seasons"),
    path("seasons/<int:season_id>/", season_views.season_detail, name="season_detail"),
    path("seasons/<int:season_id>/standings", season_views.season_standings,
         name="season_standings"),
    path("sessions/<int:session_id>/confirm", tournament_views.confirm,
         name="session_confirm"),
    path("sessions/<int:session_id>/card.png", card_views.session_card, name="session_card"),
    path("watch/<token:token>/card.png", card_views.watch_card, name="watch_card"),
]
