"""Rate limits on what costs the platform or its users: sign-ups, failed sign-ins,
uploads and challenges, counted where every web process sees the same count."""
