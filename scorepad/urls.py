from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.urls import include, path

from . import account_views, game_views, look_views, views

pages = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("groups/", views.groups, name="groups"),
    path("groups/<int:group_id>/", views.group, name="group"),
    path("sessions/", views.session_list, name="session_list"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:session_id>/", views.session_page, name="session"),
    path("sessions/<int:session_id>/board", views.scoreboard_fragment, name="board"),
    path("sessions/<int:session_id>/check", views.deal_check, name="deal_check"),
    path("sessions/<int:session_id>/fresh", views.deal_form_fresh, name="deal_form_fresh"),
    path("sessions/<int:session_id>/deals/new", views.deal_create, name="deal_create"),
    path("sessions/<int:session_id>/deals/<int:number>/edit", views.deal_edit,
         name="deal_edit"),
    path("sessions/<int:session_id>/deals/<int:number>/delete", views.deal_delete,
         name="deal_delete"),
    path("sessions/<int:session_id>/status", views.session_status, name="session_status"),
    path("sessions/<int:session_id>/history", views.session_history, name="session_history"),
    path("sessions/<int:session_id>/watch-link", views.watch_link, name="watch_link"),
    path("sessions/<int:session_id>/settlement", login_required(game_views.settlement_page),
         name="settlement"),
    path("sessions/<int:session_id>/beat", login_required(game_views.beat), name="beat"),
    path("watch/<str:token>/", views.watch, name="watch"),
    path("watch/<str:token>/board", views.watch_board, name="watch_board"),
    path("groups/<int:group_id>/sessions/", look_views.group_sessions, name="group_sessions"),
    path("groups/<int:group_id>/stats/", look_views.group_stats, name="group_stats"),
    path("players/<int:player_id>/", look_views.player_page, name="player"),
    path("players/<int:player_id>/link", look_views.player_link, name="player_link"),
    path("me/stats/", look_views.my_stats, name="my_stats"),
    path("sessions/<int:session_id>/sheet", look_views.session_sheet, name="sheet"),
    path("groups/<int:group_id>/import", views.group_import, name="group_import"),
    path("groups/<int:group_id>/invites", views.invite_new, name="invite_new"),
    path("groups/<int:group_id>/reset-link", account_views.member_reset_link,
         name="reset_link"),
    path("join/<str:token>/", views.join, name="join"),
]

urlpatterns = [
    path("", include((pages, "scorepad"))),
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("accounts/login/", account_views.Login.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", account_views.account, name="account"),
    path("accounts/logout-everywhere", account_views.logout_everywhere,
         name="logout_everywhere"),
    path("accounts/password/", account_views.PasswordChange.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("accounts/password/reset/", account_views.PasswordResetByMail.as_view(),
         name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", account_views.PasswordResetConfirm.as_view(),
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
