"""What people see: text boards and move text (:mod:`.text`, Ultimate's :mod:`.ultimate_text`),
SVG pictures (:mod:`.svg`), plots (:mod:`.plot`) and the web explorer (:mod:`.web`)."""
