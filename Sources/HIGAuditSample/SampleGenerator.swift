// The realistic log generator lives here (`hig-audit sample`); see issue 4.
