from django.urls import include, path

from nardy_site.accounts.views import LoginView, signup

urlpatterns = [
    path("signup/", signup, name="signup"),
    # Before Django's own: the same address and name, answering a failed login with a 400.
    path("login/", LoginView.as_view(), name="login"),
    path("", include("django.contrib.auth.urls")),
]
