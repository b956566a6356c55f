"""The build's hardware: the profiles (`profiles`: pins, buttons' places, the panel), the
back ends' table (`backends`), what a profile names and is missing (`missing`), and the
guided check of a built box (`check`, `nsdevice hwtest`)."""
