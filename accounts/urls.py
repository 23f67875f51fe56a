from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/time-zone/", views.time_zone_offer, name="time_zone_offer"),
    path("profile/mail-test/", views.mail_test, name="mail_test"),
    path("profile/holidays/", views.holiday_plan, name="holiday_plan"),
    path("profile/holidays/<int:pk>/end/", views.holiday_end, name="holiday_end"),
    path("profile/delete/", views.account_delete_page, name="account_delete"),
    path("account-deleted/", views.account_deleted, name="account_deleted"),
    path("profile/data/", views.data_export, name="data_export"),
    path("profile/data/<str:token>/", views.data_export_download, name="data_export_download"),
]
