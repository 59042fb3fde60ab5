"""Where tables sit: captions, regions grown from them, panels, tables without captions, figures told apart."""
