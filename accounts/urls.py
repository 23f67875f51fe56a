from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/time-zone/", views.time_zone_offer, name="time_zone_offer"),
    path("profile/mail-test/", views.mail_test, name="mail_test"),
    path("profile/holidays/", views.holiday_plan, name="holiday_plan"),
    path("profile/holidays/<int:pk>/end/", views.holiday_end, name="holiday_end"),
]
