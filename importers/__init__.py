"""Reading and writing files: card sheets, decklists, collection sheets, tournament workbooks."""
