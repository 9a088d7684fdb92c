/// Coordinated group playback: a group watches together while each participant may see different
/// ads, or none (MISSION S1.x, S2.10).
public enum GroupPlayback {}
