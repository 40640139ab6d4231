"""The settings window: one module per page (models, data sources, fees, appearance), the add-model form, and the
engine calls the pages make (`settings_actions`)."""
