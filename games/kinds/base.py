"""The parts of the ``GameKind`` contract a game may not have, as a game without
them has them: no variants, a single group of answer buttons, nothing shown
under the rules, no choices of its own on the create form, no preferences kept
per player. A kind states only what it has; this fills in the rest."""


class KindBase:
    variant_ids = ()
    variants_note = None
    reference_template = None
    stylesheet = None

    @staticmethod
    def variant_choices() -> list:
        return []

    @staticmethod
    def variant_names(variants) -> list[str]:
        return []

    def onlooker_prompt(self, decision) -> str:
        return self.decision_prompt(decision)

    @staticmethod
    def static_context(variants) -> dict:
        return {}

    @staticmethod
    def option_group(option, decision) -> str:
        return ""

    @staticmethod
    def create_fields() -> dict:
        return {}

    @staticmethod
    def player_preferences(user) -> dict:
        return {}

    @staticmethod
    def preferences_form(user, data=None):
        return None
