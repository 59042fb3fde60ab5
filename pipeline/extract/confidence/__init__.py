"""How far each extracted table can be trusted, with the reasons written on the table."""
