from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import referee_views

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("rules", referee_views.rules, name="rules"),
    path("referee/mulatschak/deal", referee_views.mulatschak_deal, name="mulatschak_deal"),
    path("referee/mulatschak/auction", referee_views.mulatschak_auction,
         name="mulatschak_auction"),
    path("referee/mulatschak/trick", referee_views.mulatschak_trick, name="mulatschak_trick"),
]
