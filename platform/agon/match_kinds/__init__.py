"""The coordinating layer: what crosses apps in a match's life.

The matches app knows how to play and end a match; bots and ladders know what a
validation verdict and a rating are. Here, and only here, they meet: each kind of match
has one outcome (validation -> the version's verdict, then its ladders; ranked -> the
ratings; challenge -> nothing), installed into the matches app when the apps load.
"""
