from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import tournament_list


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"tournaments": tournament_list()})
