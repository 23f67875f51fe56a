from django.contrib import admin

from accounts.models import AddressOptOut, MailFailure, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language")
    search_fields = ("user__email", "display_name")


@admin.register(AddressOptOut)
class AddressOptOutAdmin(admin.ModelAdmin):
    list_display = ("address", "scope", "created_at")
    search_fields = ("address",)


@admin.register(MailFailure)
class MailFailureAdmin(admin.ModelAdmin):
    list_display = ("address", "kind", "stopped", "paused_until", "failed_at", "detail")
    list_filter = ("kind", "stopped")
    search_fields = ("address",)
