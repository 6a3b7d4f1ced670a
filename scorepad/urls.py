from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("scorepad.api.urls")),
    path("admin/", admin.site.urls),
]
