"""The admin: Django's user admin with one more action, a one-time password reset link
(account recovery by staff; a group's owner cannot make one). Only staff who may change
accounts see the action."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import accounts


@admin.action(description=gettext_lazy("Make a one-time password reset link"),
              permissions=["change"])
def make_reset_link(modeladmin: Any, request: Any, queryset: Any) -> None:
    """One link per chosen account, shown once in the admin's messages."""
    for user in queryset:
        link = request.build_absolute_uri(accounts.reset_path(user))
        messages.info(request, _("Reset link for %(u)s: %(link)s")
                      % {"u": user.get_username(), "link": link})


class SchreiberUserAdmin(UserAdmin):  # type: ignore[type-arg]
    actions = [make_reset_link]

    def user_change_password(self, request: Any, id: str, form_url: str = "") -> Any:
        """Django's page in one transaction (its other pages have one): the new password
        with its access generation, or neither (grants.bump)."""
        with transaction.atomic():
            return super().user_change_password(request, id, form_url)


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, SchreiberUserAdmin)
