"""Database models of recorded games; GameRecord and its moves arrive with the games issue."""
