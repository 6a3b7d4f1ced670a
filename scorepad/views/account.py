"""The account: signing up (logging in and out are Django's own views)."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .. import services
from ..forms import SignupForm
from ..messages import input_error_message


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.account_register(username=form.cleaned_data["username"],
                                             password=form.cleaned_data["password1"])
        except services.InputError as e:
            for problem in e.problems:
                field = {"password": "password2"}.get(problem.field, problem.field)
                field = field if field in form.fields else None
                form.add_error(field, input_error_message(problem))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("scorepad:session_new")
    return render(request, "registration/signup.html", {"form": form})
