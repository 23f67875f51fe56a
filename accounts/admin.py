from django.contrib import admin

from accounts.models import AddressOptOut, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language")
    search_fields = ("user__email", "display_name")


@admin.register(AddressOptOut)
class AddressOptOutAdmin(admin.ModelAdmin):
    list_display = ("address", "scope", "created_at")
    search_fields = ("address",)
