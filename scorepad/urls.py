from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import pwa
from .disputes import tools
from .guests import account_required
from .views import (
    account,
    corrections,
    entry,
    groups,
    looking_back,
    project,
    referee,
    session,
    tablephone,
    tournaments,
)

# Every token in a URL is <token:...> (scorepad.ids.TokenConverter, apps.ready): anything
# else answers 404 before a view or the database sees it.
pages = [
    path("", project.home, name="home"),
    path("signup/", account.signup, name="signup"),
    path("groups/", groups.groups, name="groups"),
    path("groups/<int:group_id>/", groups.group, name="group"),
    path("sessions/", session.session_list, name="session_list"),
    path("sessions/new/", session.session_new, name="session_new"),
    path("play/", session.play, name="play"),
    path("sessions/<int:session_id>/", session.session_page, name="session"),
    path("sessions/<int:session_id>/board", session.scoreboard_fragment, name="board"),
    path("sessions/<int:session_id>/check", entry.deal_check, name="deal_check"),
    path("sessions/<int:session_id>/fresh", entry.deal_form_fresh, name="deal_form_fresh"),
    path("sessions/<int:session_id>/deals/new", entry.deal_create, name="deal_create"),
    path("sessions/<int:session_id>/deals/<int:number>/edit", corrections.deal_edit,
         name="deal_edit"),
    path("sessions/<int:session_id>/deals/<int:number>/delete", corrections.deal_delete,
         name="deal_delete"),
    path("sessions/<int:session_id>/status", session.session_status, name="session_status"),
    path("sessions/<int:session_id>/about", session.session_about, name="session_about"),
    path("sessions/<int:session_id>/card", session.card_page, name="session_card"),
    path("sessions/<int:session_id>/history", corrections.session_history, name="session_history"),
    path("sessions/<int:session_id>/watch-link", session.watch_link, name="watch_link"),
    path("sessions/<int:session_id>/settlement", session.settlement_page,
         name="settlement"),
    path("sessions/<int:session_id>/beat", referee.beat_moved, name="beat"),
    path("sessions/<int:session_id>/referee/", referee.session_referee,
         name="session_referee"),
    *(path(f"sessions/<int:session_id>/referee/{t}/", referee.session_referee_tool,
           {"tool": t}, name=f"session_referee_{t}") for t in tools()),
    path("referee/", referee.referee_home, name="referee"),
    *(path(f"referee/{t}/", referee.referee_tool, {"tool": t}, name=f"referee_{t}")
      for t in tools()),
    path("rules/", referee.rules_page, name="rules_doc"),
    path("watch/<token:token>/", session.watch, name="watch"),
    path("watch/<token:token>/board", session.watch_board, name="watch_board"),
    path("groups/<int:group_id>/sessions/", looking_back.group_sessions, name="group_sessions"),
    path("groups/<int:group_id>/stats/", looking_back.group_stats, name="group_stats"),
    path("players/<int:player_id>/", looking_back.player_page, name="player"),
    path("players/<int:player_id>/link", looking_back.player_link, name="player_link"),
    path("me/stats/", looking_back.my_stats, name="my_stats"),
    path("sessions/<int:session_id>/sheet", looking_back.session_sheet, name="sheet"),
    path("groups/<int:group_id>/import", groups.group_import, name="group_import"),
    path("groups/<int:group_id>/invites", groups.invite_new, name="invite_new"),
    path("groups/<int:group_id>/members", groups.member_add, name="member_add"),
    path("groups/<int:group_id>/invitations/<int:invitation_id>/revoke",
         groups.invitation_revoke, name="invitation_revoke"),
    path("invitations/<int:invitation_id>/accept", groups.invitation_accept,
         name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline", groups.invitation_decline,
         name="invitation_decline"),
    path("join/<token:token>/", groups.join, name="join"),
    path("groups/<int:group_id>/tournaments/", tournaments.tournament_list,
         name="tournament_list"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/tables", tournaments.tournament_tables,
         name="tournament_tables"),
    path("tournaments/<int:tournament_id>/rounds/<int:number>/plan", tournaments.seating_plan,
         name="seating_plan"),
    # a tournament table's phone without an account (scorepad/tablephone.py)
    path("t/", tablephone.table_enter, name="table_enter"),
    path("t/leave", tablephone.table_leave, name="table_leave"),
    path("t/<token:code>/", tablephone.table_phone, name="table_phone"),
    path("screen/<token:token>/", tournaments.screen, name="tournament_screen"),
    path("screen/<token:token>/board", tournaments.screen_board,
         name="tournament_screen_board"),
]

urlpatterns = [
    path("", include((pages, "scorepad"))),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline", pwa.offline, name="offline"),
    path("healthz", project.healthz, name="healthz"),
    path("ping", project.ping, name="ping"),
    path("accounts/login/", account.Login.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", account.account, name="account"),
    path("accounts/logout-everywhere", account.logout_everywhere,
         name="logout_everywhere"),
    path("accounts/password/", account_required(account.PasswordChange.as_view()),
         name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("accounts/password/reset/", account.PasswordResetByMail.as_view(),
         name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", account.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scorepad.api.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "scorepad.views.bad_request"
handler404 = "scorepad.views.not_found"
handler500 = "scorepad.views.server_error"
