"""The account: signing up, logging in (Django's page), changing the password, resetting a
forgotten one (a staff member's one-time link, or a mail), logging out everywhere.

Nobody but the account itself and the site's staff sets its password: a group's owner
cannot (docs/using.md, "Forgotten passwords"; docs/deploy.md, "Account recovery").

Django's own views do most of the work; each password change here also rotates the
account's API token and ends its other login sessions (scorepad/accounts.py).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .. import accounts, guests, limits, services
from ..forms import SignupForm
from ..messages import input_error_message


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    guest = guests.of_request(request)  # playing without an account: it comes along
    former = accounts.phone_owner(user=guest.user) if guest is not None else ""
    if request.method == "POST" and form.is_valid():
        try:
            user, group = guests.account_register_claiming(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"], request=request, guest=guest)
        except limits.TooMany as e:  # this address made its accounts for the hour
            response = render(request, "registration/signup.html",
                              {"form": SignupForm(),
                               "refused": accounts.registrations_message(e.wait)},
                              status=429)
            response["Retry-After"] = str(e.wait)
            return response
        except services.InputError as e:
            for problem in e.problems:
                field = {"password": "password2"}.get(problem.field, problem.field)
                field = field if field in form.fields else None
                form.add_error(field, input_error_message(problem))
        else:
            login(request, user, backend=guests.BACKEND)
            if group is None:
                return redirect("scorepad:session_new")
            # the deals the guest kept on this phone are the account's now (static/outbox.js)
            request.session[guests.FORMER_OWNER] = former
            messages.success(request, _("Your sessions played without an account are in "
                                        "your group “%(group)s” now.") % {"group": group.name})
            response = redirect("scorepad:home")
            guests.cookie_delete(response, request)
            return response
    return render(request, "registration/signup.html",
                  {"form": form, "keeps_guest": guest is not None})


class LoginForm(AuthenticationForm):
    """Django's login form, its password checked in the login lockout's turn
    (``limits.authenticate``)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            self.user_cache = limits.authenticate(self.request, username=username,
                                                  password=password)
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class Login(auth_views.LoginView):
    """Django's login page; it offers the reset by mail where a mail server is set up."""

    redirect_authenticated_user = True
    authentication_form = LoginForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # a phone playing without an account may log in to one
        self.redirect_authenticated_user = not guests.is_guest(request.user)
        return super().dispatch(request, *args, **kwargs)  # type: ignore[no-any-return]

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)
        context["mail_reset"] = getattr(settings, "SCHREIBER_MAIL", False)
        return context


class _ThrottledPasswordChangeForm(PasswordChangeForm):
    """The old password is checked as a login's (``limits.authenticate``): wrong ones count
    towards the login lockout (username and address), as on the login page and in the
    API."""

    def __init__(self, user: Any, *args: Any, request: HttpRequest | None = None,
                 **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old = str(self.cleaned_data["old_password"])
        if limits.authenticate(self.request, username=self.user.get_username(),
                               password=old) is None:
            raise ValidationError(self.error_messages["password_incorrect"],
                                  code="password_incorrect")
        return old


class PasswordChange(auth_views.PasswordChangeView):
    """Django's page (old password, new one twice); this phone stays logged in, every
    other session of the account ends and its API token is replaced."""

    success_url = reverse_lazy("password_change_done")
    form_class = _ThrottledPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = super().get_form_kwargs()
        kwargs["request"] = self.request
        return kwargs

    def form_valid(self, form: Any) -> HttpResponse:
        # Django's own form_valid saves and keeps this session's login
        response, _token = accounts.password_replace(
            user=form.user, store=partial(super().form_valid, form),
            keep=lambda: self.request.session.session_key)
        return response


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """A one-time reset link (a staff member's or a mail's): after the new password
    every session of the account ends and its API token is replaced."""

    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        response, _token = accounts.password_replace(
            user=form.user, store=partial(super().form_valid, form))
        return response


class PasswordResetByMail(auth_views.PasswordResetView):
    """Django's reset by mail; only where a mail server is configured (EMAIL_URL)."""

    success_url = reverse_lazy("password_reset_done")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not getattr(settings, "SCHREIBER_MAIL", False):
            raise Http404
        return super().dispatch(request, *args, **kwargs)  # type: ignore[no-any-return]


@guests.account_required
@require_safe
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/account.html")


@guests.account_required
@require_POST
def logout_everywhere(request: HttpRequest) -> HttpResponse:
    """Every login session of the account ends (this one too) and its API token."""
    accounts.log_out_everywhere(user=request.user)
    logout(request)
    messages.success(request, _("You are logged out everywhere."))
    return redirect("login")
